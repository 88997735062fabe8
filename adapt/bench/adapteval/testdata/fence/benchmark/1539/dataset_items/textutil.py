import re
from typing import List


def camel_case_split(identifier: str) -> List[str]:
    """Split an identifier written in camelCase into its words.

    Example:
    ```
    >>> camel_case_split("parseHTTPResponse")
    ['parse', 'HTTP', 'Response']
    ```
    """
    matches = re.finditer('.+?(?:(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|$)', identifier)
    return [m.group(0) for m in matches]
