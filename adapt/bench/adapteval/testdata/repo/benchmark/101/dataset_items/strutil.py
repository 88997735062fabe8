import re
import unicodedata

SEPARATOR = "-"


def normalize(text):
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def slugify(text, max_length=None):
    text = normalize(text).lower().strip()
    words = re.findall(r"[a-z0-9]+", text)
    slug = SEPARATOR.join(words)
    if max_length is not None:
        slug = slug[:max_length].rstrip(SEPARATOR)
    return slug
