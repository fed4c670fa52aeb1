package pipeline

import (
	"encoding/json"
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

// TestNNUERecipeJSON: the recipe's fields stay where config.json had them before they were
// declared once (at the top of the nnue object), and read back.
func TestNNUERecipeJSON(t *testing.T) {
	for _, v := range []any{DefaultNNUE(), DefaultStoreNNUE()} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["nodes"] != 1250.0 || m["soft_nodes"] != 625.0 || m["score_lambda"] != 0.7 || m["NNUERecipe"] != nil {
			t.Errorf("%T: %s", v, b)
		}
	}
	var n NNUEConfig
	if err := json.Unmarshal([]byte(`{"nodes": 7, "soft_nodes": 3, "teacher_weight": 0.25, "warmup": 9}`), &n); err != nil {
		t.Fatal(err)
	}
	if n.Nodes != 7 || n.SoftNodes != 3 || n.TeacherWeight != 0.25 || n.Warmup != 9 {
		t.Errorf("read back %+v", n.NNUERecipe)
	}
}
