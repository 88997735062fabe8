def get_port(config, name):
    return int(config[name]["port"])
