def defaults():
    name = "guest"
    level = 3
    tags = [t for t in "ab"]
    level += 1.5
    return name, level, tags
