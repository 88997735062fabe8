def hello():
    return "hello"
