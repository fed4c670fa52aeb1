package main

import "fmt"

// X is renamed app_X in the one-file program, where the parameter below would hide it.
var X = 1

func f(app_X int) int { return X + app_X }

func main() { fmt.Println(f(2)) }
