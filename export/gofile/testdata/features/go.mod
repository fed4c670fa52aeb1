module example.com/feat

go 1.22
