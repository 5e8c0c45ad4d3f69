module paimon-conform/testee-generated-go

go 1.23.0

require (
	github.com/kaitai-io/kaitai_struct_go_runtime v0.11.0
	github.com/paimon-conform/paimon-layouts-go v0.0.0
)

require (
	github.com/klauspost/compress v1.18.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.22 // indirect
	golang.org/x/text v0.28.0 // indirect
)

replace github.com/paimon-conform/paimon-layouts-go => ../../../generated/go
