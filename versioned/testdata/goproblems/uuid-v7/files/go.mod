module example.com/solution

go 1.23.0

require github.com/google/uuid v1.6.0
