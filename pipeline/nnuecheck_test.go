package pipeline

import (
	"strings"
	"testing"
)

// TestNNUEChecksShared: the settings that the local NNUE cycle (NNUEConfig) and the store's
// (StoreNNUE) both have are refused by both, with the same text; the defaults pass.
func TestNNUEChecksShared(t *testing.T) {
	local := func(edit func(nodes, soft *int64, teacher, lambda *float64, threads *int, sprt *string)) error {
		n := DefaultNNUE()
		edit(&n.Nodes, &n.SoftNodes, &n.TeacherWeight, &n.ScoreLambda, &n.TrainThreads, &n.SPRT)
		return n.check()
	}
	onStore := func(edit func(nodes, soft *int64, teacher, lambda *float64, threads *int, sprt *string)) error {
		n := DefaultStoreNNUE()
		edit(&n.Nodes, &n.SoftNodes, &n.TeacherWeight, &n.ScoreLambda, &n.TrainThreads, &n.SPRT)
		return (&storeNNUE{n: n}).check()
	}
	none := func(*int64, *int64, *float64, *float64, *int, *string) {}
	if err := local(none); err != nil {
		t.Errorf("local defaults: %v", err)
	}
	if err := onStore(none); err != nil {
		t.Errorf("store defaults: %v", err)
	}
	for _, tc := range []struct {
		want string
		edit func(nodes, soft *int64, teacher, lambda *float64, threads *int, sprt *string)
	}{
		{"soft nodes <= nodes", func(nodes, soft *int64, _, _ *float64, _ *int, _ *string) { *soft = *nodes + 1 }},
		{"nodes >= 1", func(nodes, _ *int64, _, _ *float64, _ *int, _ *string) { *nodes = 0 }},
		{"teacher weight 1: want 0 (none) or in (0, 1)", func(_, _ *int64, teacher, _ *float64, _ *int, _ *string) { *teacher = 1 }},
		{"lambda", func(_, _ *int64, _, lambda *float64, _ *int, _ *string) { *lambda = 1.5 }},
		{"-1 training threads, want >= 0", func(_, _ *int64, _, _ *float64, threads *int, _ *string) { *threads = -1 }},
		{"sprt", func(_, _ *int64, _, _ *float64, _ *int, sprt *string) { *sprt = "x" }},
	} {
		l, s := local(tc.edit), onStore(tc.edit)
		if l == nil || s == nil || l.Error() != s.Error() || !strings.Contains(strings.ToLower(l.Error()), strings.ToLower(tc.want)) {
			t.Errorf("%s: local %v, store %v", tc.want, l, s)
		}
	}
}
