def most_common_words(s, n):
    counts = {}
    for w in s.split():
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: kv[1], reverse=True)[:n]
