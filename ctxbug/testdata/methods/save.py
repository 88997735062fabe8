# context: class=CookiesUtil libs=json
def save_cookies(self, path):
    with open(path, 'w') as f:
        json.dump(self.cookies, f, indent=json.JSONEncoder().indent)
    names = [c for c in self.cookies if not c.startswith("_")]
    key = lambda c: len(c)
    return sorted(names, key=key)
