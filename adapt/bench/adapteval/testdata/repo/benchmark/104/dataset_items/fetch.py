import json

import nonexistent_pkg_xyz


def fetch_json(url, timeout=10):
    response = nonexistent_pkg_xyz.get(url, timeout=timeout)
    return json.loads(response.text)
