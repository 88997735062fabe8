import calc


def test_add():
    assert calc.add(2, 3) == 5
