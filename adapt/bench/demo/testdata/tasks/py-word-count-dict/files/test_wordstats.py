import inspect
import unittest

import wordstats


class TestMostCommonWords(unittest.TestCase):
    def test_returns_dict(self):
        result = wordstats.most_common_words("b a b c b a", 2)
        self.assertIsInstance(result, dict)
        self.assertEqual(list(result.items()), [("b", 3), ("a", 2)])

    def test_normalises_words(self):
        # dict() accepts both a dict and a list of pairs: this checks only the words.
        result = dict(wordstats.most_common_words("Go, go GO! -- ...", 5))
        self.assertEqual(result, {"go": 3})

    def test_text_keyword(self):
        self.assertEqual(dict(wordstats.most_common_words(text="x y x", n=1)), {"x": 2})

    def test_default_n(self):
        param = inspect.signature(wordstats.most_common_words).parameters["n"]
        self.assertEqual(param.default, 10)
        words = " ".join("w%d" % i for i in range(12))
        self.assertEqual(len(wordstats.most_common_words(words)), 10)

    def test_limits_to_n(self):
        result = wordstats.most_common_words("a a a b b c d", 3)
        self.assertEqual(result, {"a": 3, "b": 2, "c": 1})

    def test_format_report(self):
        text = "The cat; the dog. THE end, the CAT!"
        self.assertEqual(wordstats.format_report(text), "the=4, cat=2, dog=1")


if __name__ == "__main__":
    unittest.main()
