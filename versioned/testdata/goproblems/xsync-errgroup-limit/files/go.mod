module example.com/solution

go 1.23.0

require golang.org/x/sync v0.1.0
