"""placeholder"""
from lowering.to_llvm.common import ConversionPass
def math_patterns():
    return []
class ConvertMathToLLVMPass(ConversionPass):
    name = "convert-math-to-llvm"
    def patterns(self):
        return math_patterns()
