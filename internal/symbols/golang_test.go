package symbols

import (
	"reflect"
	"testing"
)

// authFiles is the Go side of the Authenticatable conformance fixture, as
// the chunker records it: Guest satisfies Authenticatable (through *Guest,
// since Authenticate has a pointer receiver), Admin too by embedding Guest,
// Robot has a same-named method of another arity and does not.
var authFiles = []File{
	{
		GoInterfaces: []GoInterface{
			{Name: "Authenticatable", Methods: []GoMethodSpec{{"Authenticate", 2}, {"Logout", 0}}},
			{Name: "Named", Methods: []GoMethodSpec{{"Name", 0}}},
			{Name: "Account", Embeds: []string{"Authenticatable", "Named"}},
		},
		GoTypes: []GoType{{Name: "Guest"}, {Name: "Robot"}, {Name: "Admin", Embeds: []GoEmbed{{Name: "Guest"}}}},
	},
	{
		GoMethods: []GoMethod{
			{Receiver: "Guest", Pointer: true, Name: "Authenticate", Arity: 2},
			{Receiver: "Guest", Name: "Logout", Arity: 0},
			{Receiver: "Robot", Name: "Authenticate", Arity: 1},
			{Receiver: "Robot", Name: "Logout", Arity: 0},
			{Receiver: "Admin", Name: "Name", Arity: 0},
		},
	},
}

func TestGoImplementations(t *testing.T) {
	tests := []struct {
		name  string
		files []File
		want  []GoImplementation
	}{
		{
			name:  "authenticatable",
			files: authFiles,
			want: []GoImplementation{
				{Type: "Admin", Interface: "Account", Pointer: true},
				{Type: "Admin", Interface: "Authenticatable", Pointer: true},
				{Type: "Guest", Interface: "Authenticatable", Pointer: true},
				{Type: "Admin", Interface: "Named"},
			},
		},
		{
			name: "value receivers satisfy with the value",
			files: []File{{
				GoInterfaces: []GoInterface{{Name: "Stringer", Methods: []GoMethodSpec{{"String", 0}}}},
				GoMethods:    []GoMethod{{Receiver: "Celsius", Name: "String"}},
			}},
			want: []GoImplementation{{Type: "Celsius", Interface: "Stringer"}},
		},
		{
			name: "embedding a pointer brings pointer methods to the value",
			files: []File{{
				GoInterfaces: []GoInterface{{Name: "Closer", Methods: []GoMethodSpec{{"Close", 0}}}},
				GoTypes:      []GoType{{Name: "File"}, {Name: "Wrapped", Embeds: []GoEmbed{{Name: "File", Pointer: true}}}},
				GoMethods:    []GoMethod{{Receiver: "File", Pointer: true, Name: "Close"}},
			}},
			want: []GoImplementation{
				{Type: "File", Interface: "Closer", Pointer: true},
				{Type: "Wrapped", Interface: "Closer"},
			},
		},
		{
			name: "a well-known embedded interface",
			files: []File{{
				GoInterfaces: []GoInterface{{Name: "CodedError", Embeds: []string{"error"}, Methods: []GoMethodSpec{{"Code", 0}}}},
				GoMethods: []GoMethod{
					{Receiver: "NotFound", Name: "Error"}, {Receiver: "NotFound", Name: "Code"},
					{Receiver: "Plain", Name: "Error"},
				},
			}},
			want: []GoImplementation{{Type: "NotFound", Interface: "CodedError"}},
		},
		{
			name: "unknown embedded interfaces and constraints are undecided",
			files: []File{{
				GoInterfaces: []GoInterface{
					{Name: "Remote", Embeds: []string{"grpc.ClientConn"}, Methods: []GoMethodSpec{{"Close", 0}}},
					{Name: "Number", TypeSet: true, Methods: []GoMethodSpec{{"Close", 0}}},
					{Name: "Any"},
				},
				GoMethods: []GoMethod{{Receiver: "Conn", Name: "Close"}},
			}},
			want: nil,
		},
		{
			name: "a shallower method hides a promoted one",
			files: []File{{
				GoInterfaces: []GoInterface{{Name: "Runner", Methods: []GoMethodSpec{{"Run", 1}}}},
				GoTypes:      []GoType{{Name: "Base"}, {Name: "Job", Embeds: []GoEmbed{{Name: "Base"}}}},
				GoMethods: []GoMethod{
					{Receiver: "Base", Name: "Run", Arity: 1},
					{Receiver: "Job", Name: "Run", Arity: 0},
				},
			}},
			want: []GoImplementation{{Type: "Base", Interface: "Runner"}},
		},
		{
			name: "embedding cycles end",
			files: []File{{
				GoInterfaces: []GoInterface{
					{Name: "A", Embeds: []string{"B"}, Methods: []GoMethodSpec{{"F", 0}}},
					{Name: "B", Embeds: []string{"A"}},
				},
				GoTypes:   []GoType{{Name: "X", Embeds: []GoEmbed{{Name: "Y"}}}, {Name: "Y", Embeds: []GoEmbed{{Name: "X"}}}},
				GoMethods: []GoMethod{{Receiver: "Y", Name: "F"}},
			}},
			want: []GoImplementation{
				{Type: "X", Interface: "A"}, {Type: "Y", Interface: "A"},
				{Type: "X", Interface: "B"}, {Type: "Y", Interface: "B"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := GoImplementations(tt.files...)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("GoImplementations\n got: %+v\nwant: %+v", got, tt.want)
			}
		})
	}
}

func TestGoMethodSet(t *testing.T) {
	tests := []struct {
		typ     string
		pointer bool
		want    map[string]int
	}{
		{"Guest", false, map[string]int{"Logout": 0}},
		{"Guest", true, map[string]int{"Logout": 0, "Authenticate": 2}},
		{"Admin", false, map[string]int{"Logout": 0, "Name": 0}},
		{"Admin", true, map[string]int{"Logout": 0, "Name": 0, "Authenticate": 2}},
		{"Robot", false, map[string]int{"Logout": 0, "Authenticate": 1}},
		{"Nobody", true, map[string]int{}},
	}
	for _, tt := range tests {
		if got := GoMethodSet(tt.typ, tt.pointer, authFiles...); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("GoMethodSet(%s, pointer %v) = %v, want %v", tt.typ, tt.pointer, got, tt.want)
		}
	}
}

func TestGoInterfaceMethods(t *testing.T) {
	tests := []struct {
		name   string
		want   []GoMethodSpec
		wantOK bool
	}{
		{"Account", []GoMethodSpec{{"Authenticate", 2}, {"Logout", 0}, {"Name", 0}}, true},
		{"io.Reader", []GoMethodSpec{{"Read", 1}}, true},
		{"Missing", nil, false},
	}
	for _, tt := range tests {
		got, ok := GoInterfaceMethods(tt.name, authFiles...)
		if ok != tt.wantOK || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("GoInterfaceMethods(%s) = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestGoSatisfies(t *testing.T) {
	iface := []GoMethodSpec{{"Authenticate", 2}, {"Logout", 0}}
	tests := []struct {
		set  map[string]int
		want bool
	}{
		{map[string]int{"Authenticate": 2, "Logout": 0, "Extra": 3}, true},
		{map[string]int{"Authenticate": 1, "Logout": 0}, false},
		{map[string]int{"Authenticate": 2}, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := GoSatisfies(tt.set, iface); got != tt.want {
			t.Errorf("GoSatisfies(%v) = %v, want %v", tt.set, got, tt.want)
		}
	}
	if !GoSatisfies(nil, nil) {
		t.Error("every method set satisfies the empty interface")
	}
}

func TestGoBaseName(t *testing.T) {
	for in, want := range map[string]string{"*pkg.Stack[T]": "Stack", "Guest": "Guest", "io.Reader": "Reader"} {
		if got := GoBaseName(in); got != want {
			t.Errorf("GoBaseName(%q) = %q, want %q", in, got, want)
		}
	}
}
