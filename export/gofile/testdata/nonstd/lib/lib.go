// Package lib imports a package outside the standard library.
package lib

import "example.com/dep"

// Y is dep.X.
func Y() int { return dep.X() }
