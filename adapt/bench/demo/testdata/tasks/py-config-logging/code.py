def parse_config(text):
    result = {}
    for line in text.splitlines():
        if "=" not in line:
            print("skipping bad line: " + line)
            continue
        key, value = line.split("=", 1)
        result[key.strip()] = value.strip()
    return result
