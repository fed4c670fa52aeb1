package cpp

import (
	"reflect"
	"strings"
	"testing"

	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/game/mouse/mouseab"
)

// TestSearchConfigFields: the C++ exporter knows every field of engine/alphabeta's Config
// (writes it, or has each game's filler check it): a knob added to the Go search fails this
// test until templates/common.cpp ports it and searchConfig writes it.
func TestSearchConfigFields(t *testing.T) {
	_, unported, err := writeSearchConfig(ab.WithDefaults(nnab.SearchConfig()))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range unported {
		t.Errorf("engine/alphabeta's Config.%s is unknown to the C++ export: port it to templates/common.cpp and write it in searchConfig (export/cpp/search.go)", name)
	}
	// The writer reads every field by its name: each one it wrote is a field, once.
	text, _, _ := writeSearchConfig(ab.WithDefaults(mouseab.SearchConfig()))
	fields := reflect.TypeOf(ab.Config[ataxx.Move]{}).NumField()
	if n := strings.Count(text, "static constexpr"); n < fields-len(moveBounds) {
		t.Errorf("%d constants for %d fields less the %d move bounds", n, fields, len(moveBounds))
	}
}

// TestSearchConfigRefuses: a nonzero field the exporter does not know is refused, naming it
// (a zero one, a knob left off, is not); so are settings the C++ types cannot hold.
func TestSearchConfigRefuses(t *testing.T) {
	type config struct {
		Known int
		New   int32
	}
	if err := refuseUnported(reflect.ValueOf(config{Known: 3}), []string{"New"}); err != nil {
		t.Errorf("a zero unknown field: %v", err)
	}
	if err := refuseUnported(reflect.ValueOf(config{New: 5}), []string{"New"}); err == nil || !strings.Contains(err.Error(), "Config.New = 5") {
		t.Errorf("a nonzero unknown field: err %v, want one naming Config.New = 5", err)
	}
	for name, set := range map[string]func(c *ab.Config[ataxx.Move]){
		"history size 3":  func(c *ab.Config[ataxx.Move]) { c.HistSize = 3 },
		"history divisor": func(c *ab.Config[ataxx.Move]) { c.HistDiv = 0 },
	} {
		c := ab.WithDefaults(nnab.SearchConfig())
		set(&c)
		if _, err := searchConfig(c); err == nil {
			t.Errorf("%s: exported", name)
		}
	}
	if _, err := searchConfig(ab.WithDefaults(nnab.SearchConfig())); err != nil {
		t.Error(err)
	}
}
