import unittest


class TestBrokenSetUpClass(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("no database")

    def test_one(self):
        pass

    def test_two(self):
        pass


class TestBrokenTearDownClass(unittest.TestCase):
    @classmethod
    def tearDownClass(cls):
        raise RuntimeError("cannot clean up")

    def test_one(self):
        pass
