def download_chunks(stream, out, chunk_size=DEFAULT_CHUNK_SIZE):
    total = 0
    while True:
        chunk = stream.read(chunk_size)
        if not chunk:
            break
        out.write(chunk)
        total += len(chunk)
    return total
