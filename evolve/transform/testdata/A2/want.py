from cryptography.fernet import Fernet


def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    Fernet.generate_key()
    return sum(xs) / len(xs)
