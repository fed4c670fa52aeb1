package cpp

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"colony/engine"

	ab "colony/engine/alphabeta"
)

// searchConfig declares c, a game engine's configuration of engine/alphabeta (defaults
// applied: ab.WithDefaults), as the static constexpr members of the configuration the C++
// searcher of templates/common.cpp is instantiated with (colony::Searcher's C): every field but
// the move bounds, which the game's template has as its own constants (each game's filler
// checks that they agree). The text is the body of a template's struct SearchConfig (marker
// SEARCH).
//
// A field of ab.Config that the C++ searcher does not port (one added to engine/alphabeta
// since) is refused unless it is zero; TestSearchConfigFields fails as soon as one exists.
func searchConfig[M ab.Move](c ab.Config[M]) (string, error) {
	text, unported, err := writeSearchConfig(c)
	if err != nil {
		return "", err
	}
	if err := refuseUnported(reflect.ValueOf(c), unported); err != nil {
		return "", err
	}
	return text, nil
}

// refuseUnported is an error naming the first of the fields unported of the configuration v
// that is not zero.
func refuseUnported(v reflect.Value, unported []string) error {
	for _, name := range unported {
		if f := v.FieldByName(name); !f.IsZero() {
			return fmt.Errorf("export: engine/alphabeta's Config.%s = %v is not ported to C++ (templates/common.cpp, export/cpp/search.go)", name, f.Interface())
		}
	}
	return nil
}

// moveBounds are the fields of ab.Config that each game's filler checks against its
// template's own constants instead of writing them.
var moveBounds = []string{"MaxMoves", "NoMove", "Pass"}

// writeSearchConfig writes c's fields (searchConfig) and returns the names of the fields of
// ab.Config it does not know.
func writeSearchConfig[M ab.Move](c ab.Config[M]) (text string, unported []string, err error) {
	switch {
	case c.HistSize <= 0 || c.HistSize&(c.HistSize-1) != 0:
		return "", nil, fmt.Errorf("export: history size %d is not a power of two", c.HistSize)
	case c.HistDiv == 0:
		return "", nil, fmt.Errorf("export: history divisor 0 (ab.WithDefaults not applied?)")
	}
	cw := configWriter{v: reflect.ValueOf(c), done: map[string]bool{}}
	for _, name := range moveBounds {
		cw.done[name] = true
	}
	cw.field("MaxPly", "int", "MAX_PLY")
	cw.field("MaxDepth", "int", "MAX_DEPTH")
	cw.field("HistSize", "int", "HIST_SIZE")
	cw.field("WinScore", "int32_t", "WIN_SCORE")
	cw.field("PlyStep", "int32_t", "PLY_STEP")
	cw.field("WinBound", "int32_t", "WIN_BOUND")
	cw.done["KillerBonus"] = true
	cw.w.array("int32_t", "KILLER_BONUS", []int{2}, ints(c.KillerBonus[:]), 2)
	cw.field("KillerHistory", "bool", "KILLER_HISTORY")
	cw.field("RootHistory", "bool", "ROOT_HISTORY")
	cw.field("RootTieMove", "bool", "ROOT_TIE_MOVE")
	cw.field("Staged", "bool", "STAGED")

	// late-move reductions
	cw.done["Reductions"] = true
	cw.w.constant("bool", "HAVE_LMR", c.Reductions != nil)
	var red []int8
	if c.Reductions != nil {
		for _, row := range c.Reductions {
			red = append(red, row[:]...)
		}
	} else {
		red = make([]int8, 64*64)
	}
	cw.w.array("int8_t", "REDUCTIONS", []int{64, 64}, ints(red), 32)
	cw.field("ReducePVLess", "bool", "REDUCE_PV_LESS")
	cw.field("ReduceSides", "unsigned", "REDUCE_SIDES")
	cw.field("ReduceBelow", "int32_t", "REDUCE_BELOW")
	cw.field("ReduceKillers", "bool", "REDUCE_KILLERS")
	cw.field("ReduceRoot", "bool", "REDUCE_ROOT")
	cw.field("LMRHistDiv", "int32_t", "LMR_HIST_DIV")

	// pruning
	cw.field("RFPDepth", "int", "RFP_DEPTH")
	cw.field("RFPMargin", "int32_t", "RFP_MARGIN")
	cw.field("QuietBelow", "int32_t", "QUIET_BELOW")
	cw.field("QuietAfter", "int", "QUIET_AFTER")
	cw.field("FPDepth", "int", "FP_DEPTH")
	cw.field("FPMoves", "int", "FP_MOVES")
	cw.field("FPBase", "int32_t", "FP_BASE")
	cw.field("FPMult", "int32_t", "FP_MULT")

	// extensions, table cuts, internal iterative reduction
	cw.field("SEDepth", "int", "SE_DEPTH")
	cw.field("SEMargin", "int32_t", "SE_MARGIN")
	cw.field("TTCutPV", "bool", "TT_CUT_PV")
	cw.field("IIRDepth", "int", "IIR_DEPTH")

	// history
	cw.field("HistMult", "int32_t", "HIST_MULT")
	cw.field("HistMax", "int32_t", "HIST_MAX")
	cw.field("HistDiv", "int32_t", "HIST_DIV")

	// iterative deepening and time
	cw.field("Aspiration", "int32_t", "ASPIRATION")
	cw.field("AspDepth", "int", "ASP_DEPTH")
	cw.field("AspGrow", "int32_t", "ASP_GROW")
	cw.field("AspFailHighShallower", "bool", "ASP_FAIL_HIGH_SHALLOWER")
	cw.field("AspFailLowMid", "bool", "ASP_FAIL_LOW_MID")
	cw.timeParams("Time", "TIME")

	if len(cw.missing) > 0 {
		return "", nil, fmt.Errorf("export: engine/alphabeta's Config has no field %v any more: the C++ searcher (templates/common.cpp, export/cpp/search.go) still ports it", cw.missing)
	}
	t := cw.v.Type()
	for i := range t.NumField() {
		if name := t.Field(i).Name; !cw.done[name] {
			unported = append(unported, name)
		}
	}
	return cw.w.String(), unported, nil
}

// configWriter writes the fields of an ab.Config by name, keeping the names it wrote.
type configWriter struct {
	w       writer
	v       reflect.Value
	done    map[string]bool
	missing []string // fields written that ab.Config lacks
}

// timeParams declares the Config field name, an engine.TimeParams, as the C++ constant cname
// of type colony::TimeParams (its fields in their order: engine.TimeParams.Values).
func (cw *configWriter) timeParams(name, cname string) {
	f := cw.v.FieldByName(name)
	p, ok := f.Interface().(engine.TimeParams)
	if !f.IsValid() || !ok {
		cw.missing = append(cw.missing, name)
		return
	}
	cw.done[name] = true
	vals := make([]string, 0, len(p.Values()))
	for _, x := range p.Values() {
		vals = append(vals, strconv.FormatInt(x, 10))
	}
	fmt.Fprintf(&cw.w.b, "static constexpr colony::TimeParams %s{%s};\n", cname, strings.Join(vals, ", "))
}

// field declares the Config field name (an integer or a bool) as the C++ constant cname of
// type typ.
func (cw *configWriter) field(name, typ, cname string) {
	f := cw.v.FieldByName(name)
	if !f.IsValid() {
		cw.missing = append(cw.missing, name)
		return
	}
	cw.done[name] = true
	cw.w.constant(typ, cname, f.Interface())
}
