class Temperature:
    @staticmethod
    def to_fahrenheit(c):
        return c * 9 / 5 + 32

    @classmethod
    def zero(cls):
        return cls.to_fahrenheit(0)
