package main

import (
	"fmt"

	"example.com/nonstd/lib"
)

func main() { fmt.Println(lib.Y()) }
