//go:build race

package e2e

// raceBuild makes the binary under test race-checked too when the tests are:
// the daemon's goroutines are where the concurrency is.
const raceBuild = true
