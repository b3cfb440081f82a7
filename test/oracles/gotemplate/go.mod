module watchkeeper/test/oracles/gotemplate

go 1.19
