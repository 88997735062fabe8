def defaults():
    name = ["guest"][0]
    level = [3][0]
    tags = [[t for t in "ab"]][0]
    level += [1.5][0]
    return name, level, tags
