def consume(bucket, tokens, rate, capacity):
    now = time.time()
    elapsed = now - bucket["last"]
    bucket["tokens"] = min(capacity, bucket["tokens"] + elapsed * rate)
    bucket["last"] = now
    if bucket["tokens"] >= tokens:
        bucket["tokens"] -= tokens
        return True
    return False
