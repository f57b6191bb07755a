"""Writes the P4Runtime v1 protobuf schema as a FileDescriptorSet, read back from PyPI's p4runtime wheel.

The wheel ships generated *_pb2.py modules, not .proto text; each module holds its .proto file's
serialized FileDescriptorProto. Importing the modules and walking their dependencies gives every file
protoc needs (--descriptor_set_in), so the Java code is generated from the published package itself.

usage: python p4runtime_descriptors.py OUT.desc
"""
import sys

from google.protobuf import descriptor_pb2

# the modules whose files (and every file they import) make up the P4Runtime API
import p4.v1.p4runtime_pb2  # noqa: F401  (p4runtime.proto imports p4data, p4info, p4types, google/rpc/status)
import p4.config.v1.p4info_pb2  # noqa: F401
import google.rpc.code_pb2  # noqa: F401


def add_with_dependencies(file_descriptor, seen, out):
    """Dependencies first: protoc reads a descriptor set in order and needs imports defined before use."""
    if file_descriptor.name in seen:
        return
    seen.add(file_descriptor.name)
    for dependency in file_descriptor.dependencies:
        add_with_dependencies(dependency, seen, out)
    proto = descriptor_pb2.FileDescriptorProto()
    file_descriptor.CopyToProto(proto)
    out.file.append(proto)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: p4runtime_descriptors.py OUT.desc")
    descriptor_set = descriptor_pb2.FileDescriptorSet()
    seen = set()
    for module in (p4.v1.p4runtime_pb2, p4.config.v1.p4info_pb2, google.rpc.code_pb2):
        add_with_dependencies(module.DESCRIPTOR, seen, descriptor_set)
    with open(sys.argv[1], "wb") as f:
        f.write(descriptor_set.SerializeToString())
    print("p4runtime descriptors: " + ", ".join(p.name for p in descriptor_set.file))


if __name__ == "__main__":
    main()
