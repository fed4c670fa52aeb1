package main

import (
	"fmt"

	"example.com/asm/lib"
)

func main() { fmt.Println(lib.Add(1, 2)) }
