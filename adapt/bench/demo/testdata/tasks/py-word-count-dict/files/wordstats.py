"""Word statistics for the weekly report."""

import string

PUNCTUATION = string.punctuation


def most_common_words(text, n=10):
    counts = {}
    for word in text.split():
        word = word.strip(PUNCTUATION).lower()
        if word:
            counts[word] = counts.get(word, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)
    return dict(ranked[:n])


def format_report(text, n=3):
    top = most_common_words(text=text, n=n)
    return ", ".join(f"{word}={count}" for word, count in top.items())
