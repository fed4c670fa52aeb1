package gitrev

import (
	"os/exec"
	"testing"
)

// In the module's checkout Short is a hash; without git it is empty.
func TestShort(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if Short() != "" {
			t.Fatal("no git, yet a revision")
		}
		return
	}
	if exec.Command("git", "rev-parse", "HEAD").Run() != nil {
		t.Skip("not in a git checkout")
	}
	if r := Short(); len(r) < 4 {
		t.Fatalf("Short() = %q, want a hash", r)
	}
}
