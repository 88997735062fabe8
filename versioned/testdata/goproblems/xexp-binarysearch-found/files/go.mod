module example.com/solution

go 1.23.0

require golang.org/x/exp v0.0.0-20221208152030-732eee02a75a
