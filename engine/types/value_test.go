package types

import "testing"

func TestValue_String_SQLLiterals(t *testing.T) {
	cases := map[string]Value{
		"NULL": Null, "12": NewInt(12), "1.5": NewReal(1.5), "'it''s'": NewText("it's"),
		"X'0AFF'": NewBlob([]byte{0x0a, 0xff}), "100.0": NewReal(100),
	}
	for want, v := range cases {
		if got := v.String(); got != want {
			t.Errorf("String() = %s, want %s", got, want)
		}
	}
}

func TestValue_JSONSubtype_KeptByCastDroppedByStorage(t *testing.T) {
	j := NewJSON("[1]")
	if !j.IsJSON() || NewText("[1]").IsJSON() {
		t.Fatal("IsJSON")
	}
	// SQLite's CAST AS TEXT leaves a text value and its subtype alone:
	// subtype(CAST(json('[1]') AS TEXT)) is 74.
	if !Cast(j, AffinityText).IsJSON() {
		t.Error("CAST AS TEXT drops the subtype")
	}
	if Cast(j, AffinityBlob).IsJSON() {
		t.Error("CAST AS BLOB keeps the subtype")
	}
	if !j.Clone().IsJSON() {
		t.Error("Clone drops the subtype")
	}
	v, err := DecodeColumn(AppendRecord(nil, []Value{j}), 0)
	if err != nil || v.IsJSON() || v.Str() != "[1]" {
		t.Errorf("record round trip: %v %v", v, err)
	}
	if Compare(j, NewText("[1]"), CollBinary) != 0 {
		t.Error("subtype changes comparison")
	}
}

func TestValue_Clone_Detaches(t *testing.T) {
	b := []byte("abc")
	v := NewBlob(b).Clone()
	b[0] = 'z'
	if v.Str() != "abc" {
		t.Error("Clone aliases")
	}
}
