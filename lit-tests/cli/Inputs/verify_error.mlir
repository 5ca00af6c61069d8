module {
  func.func @f(%a: f32) -> f32 {
    %0 = arith.addf %a, %a : f32
    return %a, %a : f32, f32
  }
}
