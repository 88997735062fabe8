// Package fixture is a tiny package under test.
package fixture

// Add returns a+b.
func Add(a, b int) int { return a + b }

// Sub returns a-b, or would: it has a bug the tests catch.
func Sub(a, b int) int { return a + b }

// Div returns a/b.
func Div(a, b int) int { return a / b }
