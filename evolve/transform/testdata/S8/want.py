def my_decorator(func):
    def dec_result(*args, **kwargs):
        res = func(*args, **kwargs)
        return res
    return dec_result


class Temperature:
    @staticmethod
    @my_decorator
    def to_fahrenheit(c):
        return c * 9 / 5 + 32

    @classmethod
    def zero(cls):
        return cls.to_fahrenheit(0)
