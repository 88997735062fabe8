module example.com/solution

go 1.23.0

require github.com/google/go-cmp v0.6.0
