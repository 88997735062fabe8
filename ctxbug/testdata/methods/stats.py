# context: class=DataStats methods=mean globals= libs=np,Counter,json
def summary(self, values, path):
    arr = np.array(values, dtype=float)
    counts = Counter(values)
    top = counts.most_common(1)[0][0] if counts else None
    result = {"mean": float(np.mean(arr)), "std": round(np.std(arr), 2), "mode": top}
    with open(path, "w") as f:
        json.dump(result, f)
    return self.mean(values) - result["std"] * np.sqrt(len(arr))
