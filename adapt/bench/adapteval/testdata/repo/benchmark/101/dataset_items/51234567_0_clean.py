def make_slug(text):
    text = text.lower().strip()
    words = text.split()
    return '-'.join(words)
