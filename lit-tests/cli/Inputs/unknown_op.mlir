module {
  func.func @f(%a: f32) -> f32 {
    %0 = nosuch.op %a : f32
    return %0 : f32
  }
}
