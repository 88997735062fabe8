package ctxbug

import "testing"

func TestGranularityText(t *testing.T) {
	for _, l := range []granularity{granularityToken, granularityExpression} {
		b, err := l.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back granularity
		if err := back.UnmarshalText(b); err != nil || back != l {
			t.Errorf("%v: round trip gave %v, %v", l, back, err)
		}
	}
	if _, err := granularityInvalid.MarshalText(); err == nil {
		t.Error("LevelInvalid marshalled")
	}
	var l granularity
	if err := l.UnmarshalText(nil); err == nil {
		t.Error(`"" unmarshalled`)
	}
}
