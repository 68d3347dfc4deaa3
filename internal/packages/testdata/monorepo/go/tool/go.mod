module example.com/tool

go 1.21

require example.com/lib v1.0.0
