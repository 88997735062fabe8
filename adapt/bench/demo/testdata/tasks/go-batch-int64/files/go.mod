module example.com/gobatches

go 1.22
