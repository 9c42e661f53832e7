// RUN: xla-opt %s -p convert-complex-to-llvm | FileCheck %s
// RUN: xla-opt %s -p convert-to-llvm | FileCheck %s --check-prefix=ALL

// complex<fT> is !llvm.struct<(fT, fT)>: create inserts, re/im extract.
// CHECK-LABEL: func.func @parts
// CHECK:         %[[Z:.*]] = builtin.unrealized_conversion_cast %{{.*}} : complex<f32> to !llvm.struct<(f32, f32)>
// CHECK:         %[[RE:.*]] = llvm.extractvalue %[[Z]][0] : !llvm.struct<(f32, f32)>
// CHECK:         %[[IM:.*]] = llvm.extractvalue %[[Z]][1] : !llvm.struct<(f32, f32)>
// CHECK:         %[[SUM:.*]] = arith.addf %[[RE]], %[[IM]] : f32
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
// CHECK-NEXT:    %[[W:.*]] = llvm.insertvalue %[[SUM]], %[[U]][0] : !llvm.struct<(f32, f32)>
// CHECK-NEXT:    %[[W2:.*]] = llvm.insertvalue %[[RE]], %[[W]][1] : !llvm.struct<(f32, f32)>

// Memrefs of complex elements load and store whole structs.
// ALL-LABEL: llvm.func @parts
// ALL:         %[[P:.*]] = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f32, f32)>
// ALL-NEXT:    %[[L:.*]] = llvm.load %[[P]] : !llvm.ptr -> !llvm.struct<(f32, f32)>
// ALL-NEXT:    %[[RE:.*]] = llvm.extractvalue %[[L]][0] : !llvm.struct<(f32, f32)>
// ALL-NEXT:    %[[IM:.*]] = llvm.extractvalue %[[L]][1] : !llvm.struct<(f32, f32)>
// ALL-NEXT:    %[[SUM:.*]] = llvm.fadd %[[RE]], %[[IM]] : f32
// ALL-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
// ALL-NEXT:    %[[W:.*]] = llvm.insertvalue %[[SUM]], %[[U]][0] : !llvm.struct<(f32, f32)>
// ALL-NEXT:    %[[W2:.*]] = llvm.insertvalue %[[RE]], %[[W]][1] : !llvm.struct<(f32, f32)>
// ALL-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f32, f32)>
// ALL-NEXT:    llvm.store %[[W2]], %[[Q]] : !llvm.struct<(f32, f32)>, !llvm.ptr
func.func @parts(%p: memref<4xcomplex<f32>>, %i: index) {
  %0 = memref.load %p[%i] : memref<4xcomplex<f32>>
  %1 = complex.re %0 : complex<f32>
  %2 = complex.im %0 : complex<f32>
  %3 = arith.addf %1, %2 : f32
  %4 = complex.create %3, %1 : complex<f32>
  memref.store %4, %p[%i] : memref<4xcomplex<f32>>
  func.return
}

// A leftover constant becomes its two parts.
// CHECK-LABEL: func.func @constant
// CHECK-NEXT:    %[[RE:.*]] = llvm.mlir.constant(1.500000e+00 : f64) : f64
// CHECK-NEXT:    %[[IM:.*]] = llvm.mlir.constant(-2.000000e+00 : f64) : f64
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f64, f64)>
// CHECK-NEXT:    %[[W:.*]] = llvm.insertvalue %[[RE]], %[[U]][0] : !llvm.struct<(f64, f64)>
// CHECK-NEXT:    llvm.insertvalue %[[IM]], %[[W]][1] : !llvm.struct<(f64, f64)>
// ALL-LABEL: llvm.func @constant
// ALL:         llvm.store %{{.*}}, %{{.*}} : !llvm.struct<(f64, f64)>, !llvm.ptr
func.func @constant(%p: memref<complex<f64>>) {
  %0 = complex.constant [1.5 : f64, -2.0 : f64] : complex<f64>
  memref.store %0, %p[] : memref<complex<f64>>
  func.return
}
