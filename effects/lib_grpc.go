package effects

import (
	"go/constant"
	"go/types"
	"strings"
)

// gRPC (google.golang.org/grpc): a client call is outbound to the RPC's
// full method name, "grpc:/package.Service/Method". A generated stub
// calls its connection's Invoke or NewStream with the constant
// <Service>_<Method>_FullMethodName; a call through the generated
// <Service>Client interface, whose implementation is out of sight (the
// connection is made in main), is read from that constant. The rest of
// grpc is analysed from its source.
const grpcPath = "google.golang.org/grpc"

func grpcLibrary() *Library {
	const p = grpcPath
	invoke := grpcMethodAt(arg(p + ".ClientConn.Invoke.method"))
	newStream := grpcMethodAt(arg(p + ".ClientConn.NewStream.method"))
	return &Library{
		Name:  "grpc",
		Paths: []string{p},
		Models: map[string]model{
			p + ".ClientConn.Invoke":    invoke,
			p + ".ClientConn.NewStream": newStream,
			p + ".Invoke":               grpcMethodAt(arg(p + ".Invoke.method")),
			p + ".NewClientStream":      grpcMethodAt(arg(p + ".NewClientStream.method")),
		},
		IfaceModels: map[string]model{
			p + ".ClientConnInterface.Invoke":    grpcMethodAt(arg(p + ".ClientConnInterface.Invoke.method")),
			p + ".ClientConnInterface.NewStream": grpcMethodAt(arg(p + ".ClientConnInterface.NewStream.method")),
		},
		Shapes: []func(*types.Func) model{grpcStub},
		// Sending and receiving on a stream is the RPC counted where
		// NewStream opened it.
		BenignIfaces: []string{p + ".ClientStream", p + ".ClientStreamingClient", p + ".ServerStreamingClient", p + ".BidiStreamingClient"},
	}
}

// grpcMethodAt proves the RPC named by argument i (receiver counted).
func grpcMethodAt(i int) model {
	return func(c *callSite) {
		c.emit(Pending{Op: OpSubject, Kind: Outbound, Text: c.str(i, handleString)})
		c.handOffArgs(i + 1)
	}
}

// grpcStub recognises a method of a generated client interface: the
// interface is <Service>Client, the method's last parameter is
// ...grpc.CallOption. The RPC is the package's constant
// <Service>_<Method>_FullMethodName (protoc-gen-go-grpc since 1.3).
func grpcStub(m *types.Func) model {
	sig := m.Signature()
	if sig.Recv() == nil || !sig.Variadic() || sig.Params().Len() == 0 {
		return nil
	}
	last, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
	if !ok || qualifiedName(last.Elem()) != grpcPath+".CallOption" {
		return nil
	}
	n, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	service, ok := strings.CutSuffix(n.Obj().Name(), "Client")
	if !ok || service == "" {
		return nil
	}
	name := service + "_" + m.Name() + "_FullMethodName"
	cst, ok := n.Obj().Pkg().Scope().Lookup(name).(*types.Const)
	if !ok || cst.Val().Kind() != constant.String {
		return func(c *callSite) {
			c.unprovable("calls "+m.Name()+" through the gRPC client "+n.Obj().Name()+", whose package has no constant "+name+" naming the RPC",
				`regenerate the stub with protoc-gen-go-grpc 1.3 or later, or declare it with //agent:effect outbound("grpc:/package.Service/Method")`)
			c.handOffArgs(1)
		}
	}
	method := constant.StringVal(cst.Val())
	return func(c *callSite) {
		c.emit(Pending{Op: OpSubject, Kind: Outbound, Text: litStr(method)})
		c.handOffArgs(1)
	}
}
