def save_response(response, f):
    while True:
        chunk = response.read(1024)
        if not chunk:
            break
        f.write(chunk)
        print("wrote %d bytes" % len(chunk))
