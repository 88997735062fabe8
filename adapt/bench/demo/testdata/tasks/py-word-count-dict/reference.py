def most_common_words(text, n=10):
    counts = {}
    for word in text.split():
        word = word.strip(PUNCTUATION).lower()
        if word:
            counts[word] = counts.get(word, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)
    return dict(ranked[:n])
