package etcd

import (
	"fmt"
	"strconv"
	"strings"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/mvccpb"
)

// request is a gRPC request as a log's command: its method's short name
// and what it names (keys, a lease, a comparison).
func request(method string, req any) []string {
	name := method[strings.LastIndexByte(method, '/')+1:]
	switch r := req.(type) {
	case *pb.RangeRequest:
		return append([]string{name}, rangeArgs(r)...)
	case *pb.PutRequest:
		return putArgs(name, r)
	case *pb.DeleteRangeRequest:
		return []string{name, string(r.Key)}
	case *pb.TxnRequest:
		return txnArgs(r)
	case *pb.LeaseGrantRequest:
		return []string{name, "TTL", strconv.FormatInt(r.TTL, 10)}
	case *pb.LeaseRevokeRequest:
		return []string{name, leaseText(r.ID)}
	case *pb.LeaseKeepAliveRequest:
		return []string{name, leaseText(r.ID)}
	case *pb.WatchRequest:
		if c := r.GetCreateRequest(); c != nil {
			args := []string{name, string(c.Key)}
			if c.StartRevision > 0 {
				args = append(args, "REV", strconv.FormatInt(c.StartRevision, 10))
			}
			return args
		}
		return []string{name}
	}
	return []string{name}
}

func putArgs(name string, r *pb.PutRequest) []string {
	value := string(r.Value)
	if value == "" {
		value = `""`
	}
	args := []string{name, string(r.Key), value}
	if r.Lease != 0 {
		args = append(args, "LEASE", leaseText(r.Lease))
	}
	return args
}

func rangeArgs(r *pb.RangeRequest) []string {
	args := []string{string(r.Key)}
	if len(r.RangeEnd) > 0 {
		args[0] += "*"
	}
	if r.MaxCreateRevision > 0 {
		args = append(args, "MAXCREATE", strconv.FormatInt(r.MaxCreateRevision, 10))
	}
	if r.SortTarget == pb.RangeRequest_CREATE {
		args = append(args, "SORTBY", "CREATE", r.SortOrder.String())
	}
	if r.Limit > 0 {
		args = append(args, "LIMIT", strconv.FormatInt(r.Limit, 10))
	}
	return args
}

// txnArgs writes a transaction as TXN IF … THEN … ELSE ….
func txnArgs(r *pb.TxnRequest) []string {
	args := []string{"Txn", "IF"}
	for _, c := range r.Compare {
		args = append(args, compareText(c))
	}
	args = append(args, "THEN")
	for _, op := range r.Success {
		args = append(args, opText(op))
	}
	if len(r.Failure) > 0 {
		args = append(args, "ELSE")
		for _, op := range r.Failure {
			args = append(args, opText(op))
		}
	}
	return args
}

func compareText(c *pb.Compare) string {
	var v string
	switch t := c.TargetUnion.(type) {
	case *pb.Compare_CreateRevision:
		v = strconv.FormatInt(t.CreateRevision, 10)
	case *pb.Compare_ModRevision:
		v = strconv.FormatInt(t.ModRevision, 10)
	case *pb.Compare_Version:
		v = strconv.FormatInt(t.Version, 10)
	case *pb.Compare_Value:
		v = strconv.Quote(string(t.Value))
	case *pb.Compare_Lease:
		v = leaseText(t.Lease)
	}
	op := map[pb.Compare_CompareResult]string{pb.Compare_EQUAL: "=", pb.Compare_GREATER: ">", pb.Compare_LESS: "<", pb.Compare_NOT_EQUAL: "!="}[c.Result]
	return fmt.Sprintf("%s(%s)%s%s", strings.ToLower(c.Target.String()), c.Key, op, v)
}

func opText(op *pb.RequestOp) string {
	switch r := op.Request.(type) {
	case *pb.RequestOp_RequestRange:
		return "Range " + strings.Join(rangeArgs(r.RequestRange), " ")
	case *pb.RequestOp_RequestPut:
		return strings.Join(putArgs("Put", r.RequestPut), " ")
	case *pb.RequestOp_RequestDeleteRange:
		return "DeleteRange " + string(r.RequestDeleteRange.Key)
	case *pb.RequestOp_RequestTxn:
		return "Txn"
	}
	return "?"
}

// reply is a gRPC reply as a log's reply text.
func reply(resp any) string {
	switch r := resp.(type) {
	case *pb.RangeResponse:
		return rangeText(r)
	case *pb.PutResponse:
		return "OK rev " + strconv.FormatInt(r.Header.GetRevision(), 10)
	case *pb.DeleteRangeResponse:
		return fmt.Sprintf("deleted %d rev %d", r.Deleted, r.Header.GetRevision())
	case *pb.TxnResponse:
		return fmt.Sprintf("succeeded=%t rev %d", r.Succeeded, r.Header.GetRevision())
	case *pb.LeaseGrantResponse:
		if r.Error != "" {
			return "(error) " + r.Error
		}
		return fmt.Sprintf("lease %s TTL %d", leaseText(r.ID), r.TTL)
	case *pb.LeaseRevokeResponse:
		return "OK rev " + strconv.FormatInt(r.Header.GetRevision(), 10)
	case *pb.LeaseKeepAliveResponse:
		if r.TTL <= 0 {
			return fmt.Sprintf("lease %s not found (expired)", leaseText(r.ID))
		}
		return fmt.Sprintf("lease %s TTL %d", leaseText(r.ID), r.TTL)
	case *pb.WatchResponse:
		return watchText(r)
	}
	return fmt.Sprintf("%T", resp)
}

func rangeText(r *pb.RangeResponse) string {
	if len(r.Kvs) == 0 {
		return "(empty)"
	}
	var b strings.Builder
	for i, kv := range r.Kvs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s create=%d", kv.Key, kv.CreateRevision)
	}
	return b.String()
}

// watchText is what a watch stream pushes: each event with its key and
// revision.
func watchText(r *pb.WatchResponse) string {
	switch {
	case r.Created:
		return fmt.Sprintf("watching (id %d) rev %d", r.WatchId, r.Header.GetRevision())
	case r.Canceled:
		return "watch canceled " + r.CancelReason
	case len(r.Events) == 0:
		return fmt.Sprintf("progress rev %d", r.Header.GetRevision())
	}
	var b strings.Builder
	for i, ev := range r.Events {
		if i > 0 {
			b.WriteString(", ")
		}
		op := "PUT"
		if ev.Type == mvccpb.DELETE {
			op = "DELETE"
		}
		fmt.Fprintf(&b, "%s %s rev %d", op, ev.Kv.Key, ev.Kv.ModRevision)
	}
	return b.String()
}

// leaseText is a lease ID as etcd writes it in a lock's key: hex.
func leaseText(id int64) string { return strconv.FormatInt(id, 16) }

// Node is the name the log gives the etcd server.
const Node = "etcd"
