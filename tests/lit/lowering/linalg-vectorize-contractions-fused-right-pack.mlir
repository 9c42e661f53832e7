// RUN: xla-opt %s --split-input-file -p "linalg-pack-contractions{target=cascadelake},linalg-vectorize-contractions{target=cascadelake}" | FileCheck %s
// RUN: xla-opt %s --split-input-file -p "linalg-pack-contractions{target=znver4},linalg-vectorize-contractions{target=znver4}" | FileCheck %s --check-prefix=ZEN

// On Cascade Lake (`right_pack_in_parts`) B's pack moves into the parallel parts when
// all of C's rows fit one part: each part (all 32 rows, 2 of the 17 column panels:
// 9 parts, the last of one panel) packs its own columns of B into a per-thread buffer
// on the stack, the panel index offset by the part's first column panel, and the
// micro-kernel reads B from it at the panel's offset in the part. No whole packed B is
// allocated. The Zen target packs B whole, once, before the parts.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:     memref.alloc()
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[T:.*]]: index):
// CHECK-NEXT:      %[[LOCAL:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x2x65x64xf32>
// CHECK:           %[[JP:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK:           %[[N_LO:.*]] = arith.muli %[[JP]], %{{.*}} : index
// CHECK:           %[[LAST:.*]] = arith.cmpi eq, %[[JP]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[LAST]] {
// CHECK-NEXT:        %[[SHORT:.*]] = memref.subview %[[LOCAL]][0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1]
// CHECK-NEXT:        linalg.generic {{.*}} outs(%[[SHORT]] : memref<1x1x64x64xf32, strided<[8320, 4160, 64, 1]>>)
// CHECK-NEXT:        ^{{.*}}(%{{.*}}: f32):
// CHECK-NEXT:          %[[P:.*]] = linalg.index 2 : index
// CHECK-NEXT:          %{{.*}} = arith.addi %[[P]], %[[N_LO]] : index
// CHECK:               memref.load %b[{{.*}}] : memref<64x1088xf32>
// CHECK:           } else {
// CHECK-NEXT:        %[[FULL:.*]] = memref.subview %[[LOCAL]][0, 0, 0, 0] [1, 2, 64, 64] [1, 1, 1, 1]
// CHECK-NEXT:        linalg.generic {{.*}} outs(%[[FULL]] : memref<1x2x64x64xf32, strided<[8320, 4160, 64, 1]>>)
// CHECK:               memref.load %b[{{.*}}] : memref<64x1088xf32>
// CHECK:           scf.for
// CHECK:             scf.for %[[N1:.*]] = %[[N_LO]] to
// CHECK:               scf.for
// CHECK:                 %[[COL:.*]] = arith.subi %[[N1]], %[[N_LO]] : index
// CHECK:                 vector.load %[[LOCAL]][%{{.*}}, %[[COL]], %{{.*}}, %{{.*}}] : memref<1x2x65x64xf32>, vector<16xf32>
// CHECK-NOT:   linalg.generic
// ZEN-LABEL:   func.func @matmul
// ZEN:           %[[B4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x17x65x64xf32>
// ZEN:           linalg.generic
// ZEN:           "scf.parallel"
// ZEN-NOT:         memref.alloca() {{.*}} : memref<1x{{.*}}x65x64xf32>
// ZEN:             vector.load %{{.*}} : memref<1x17x64x64xf32, {{.*}}>, vector<16xf32>
func.func @matmul(%a: memref<32x64xf32>, %b: memref<64x1088xf32>, %c: memref<32x1088xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<32x64xf32>, memref<64x1088xf32>) outs(%c : memref<32x1088xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Rows that do not fit one part's cache block (a k block of 1024 rows of A, 2 MiB, is
// more than half of L2) keep the parts of rows, and B's pack stays whole before them:
// packing per part would pack each column once per part of rows.
// CHECK-LABEL: func.func @many_rows
// CHECK:         %[[B4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x513x64xf32>
// CHECK:         linalg.generic
// CHECK:         "scf.parallel"
// CHECK-NOT:       memref.alloca() {{.*}} : memref<1x{{.*}}x513x64xf32>
// ZEN-LABEL:   func.func @many_rows
func.func @many_rows(%a: memref<1024x512xf32>, %b: memref<512x128xf32>, %c: memref<1024x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<1024x512xf32>, memref<512x128xf32>) outs(%c : memref<1024x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
