module example.com/solution

go 1.23.0

require golang.org/x/exp v0.0.0-20220303212507-bbda1eaf7a17
