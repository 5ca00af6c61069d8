// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program unary_math.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program unary_math (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
    %3 = stablehlo.log %2 : tensor<8x16xf32>
    %4 = stablehlo.sqrt %2 : tensor<8x16xf32>
    %5 = stablehlo.add %3, %4 : tensor<8x16xf32>
    %6 = stablehlo.sign %arg0 : tensor<8x16xf32>
    %7 = stablehlo.floor %arg0 : tensor<8x16xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<8x16xf32>
    %9 = stablehlo.add %5, %8 : tensor<8x16xf32>
    %10 = stablehlo.negate %arg0 : tensor<8x16xf32>
    %11 = stablehlo.exponential %10 : tensor<8x16xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %13 = stablehlo.add %12, %11 : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %15 = stablehlo.divide %14, %13 : tensor<8x16xf32>
    %16 = stablehlo.add %9, %15 : tensor<8x16xf32>
    %cst_2 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %18 = stablehlo.power %2, %17 : tensor<8x16xf32>
    %19 = stablehlo.add %16, %18 : tensor<8x16xf32>
    %20 = stablehlo.log_plus_one %2 : tensor<8x16xf32>
    %21 = stablehlo.add %19, %20 : tensor<8x16xf32>
    %22 = stablehlo.ceil %arg0 : tensor<8x16xf32>
    %23 = stablehlo.add %21, %22 : tensor<8x16xf32>
    %24 = call @round(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %25 = stablehlo.add %23, %24 : tensor<8x16xf32>
    %26 = stablehlo.negate %2 : tensor<8x16xf32>
    %27 = stablehlo.exponential_minus_one %26 : tensor<8x16xf32>
    %28 = stablehlo.subtract %25, %27 : tensor<8x16xf32>
    %29 = stablehlo.multiply %arg0, %arg0 : tensor<8x16xf32>
    %30 = stablehlo.add %28, %29 : tensor<8x16xf32>
    %31 = stablehlo.rsqrt %2 : tensor<8x16xf32>
    %32 = stablehlo.add %30, %31 : tensor<8x16xf32>
    %33 = stablehlo.sine %arg0 : tensor<8x16xf32>
    %34 = stablehlo.cosine %arg0 : tensor<8x16xf32>
    %35 = stablehlo.multiply %33, %34 : tensor<8x16xf32>
    %36 = stablehlo.add %32, %35 : tensor<8x16xf32>
    %cst_3 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %38 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %39 = stablehlo.clamp %37, %arg0, %38 : tensor<8x16xf32>
    %40 = stablehlo.add %36, %39 : tensor<8x16xf32>
    return %40 : tensor<8x16xf32>
  }
  func.func private @round(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @check0(%got: tensor<8x16xf32>, %want: tensor<8x16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8x16xf32>
    %ad = stablehlo.abs %d : tensor<8x16xf32>
    %aw = stablehlo.abs %want : tensor<8x16xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<8x16xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<8x16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<8x16xf32>
    %tol = stablehlo.add %rel, %at : tensor<8x16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<8x16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<8x16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<8x16xi1>
    %bad = stablehlo.not %ok : tensor<8x16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8x16xi1>) -> tensor<8x16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8x16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x16C1B2BF327CB93E02B5F03F30952BBFDD0C5F3FFA481C401EC3333FCC7633BFA282CEBFFB0B1CBFAB99EBBDF2991E3F6C9321BF5790E23E35C5FEBC1380663F8451D9BE35011FBDE99FE2BEBF050540752D893E77FB4DBE475A063F1AE55A3FB74D2FC07ADCBE3F4B7833406E7E63BF374217BFA262223FCC833ABFB147113E3CDBAABE784E963FCF7E66BED2051E3FE9139DBF0866943EDA1911BEF386FF3E41F345BF035B263E25F69EBFD876AD3F3F511C3F07A0D03E5865763FEA8E273FEE356B3E438418BE1225314041F927BF65A7B6BD1FE106BF01CF823F6A7ECBBF26D1FFBD25360EC02409083F01FB8D3E41ADA1BF3A6CEFBFA33D03BFF43339C069FB523FC2EAAFBEA791CA3EE2CEC73E2C88993E835D8CBF49DF053EE0DD99BDCAF36640D79F333E31E0363E9AD63E3F1ED1373FC79285BB363EFC3FA599EDBE8824A3BE07ACD7BF0766B23FF6F48ABFF951FD3D4B4A55BE93F7F6BEBB6A71BF81A4643F1FBF0B3FCE4357BDA278823EFF9E25BFB049F23D2703B0BEA5D5563F2FCC253FCC0B5A3E3517293F7D3ADC3F3F45793E740CD73FEC3DC3BFA5E604BFB11300C02DB7863EAA784D3E546E6CBF6631093E9B4BEA3D9DF6363EFB87AFBF11A8FCBDE65B8EBE983D8D3C29C37A3F3F00053F4989C4BF29F9A3BE7E014E3F434D0C3EF07883BF3EDB05C05830CCBDCF4DA3BDF17CF33F42CD8EBFDE3CB73E"> : tensor<8x16xf32>
    %res = call @compute(%in0) : (tensor<8x16xf32>) -> (tensor<8x16xf32>)
    %want0 = stablehlo.constant dense<"0xFD30EE403D759B401E40894194D45540ACF60A41FA44BA41BEC8F9405D875E409C79FF405A4C454032E83440E5D7EB40E9164B40ECCAAB403F443440CD5C0D41207C5C40E5AD3340DE7F5F4024CCA341A45B884091FB3C4052BADB40799F094100107D4198495E41F2DCDC41761E8C403F5D40405858EE40E07D664035975F402A654E402FC943419CCA3F40E175EB40E675CA4042C58C4040F736402B4CB74062C67340D04A67408674CD402BBD5241DD54EA4084A8A440B376124151C2F14083B98040569B3740F304DA41EEEA5140728033404E0B3040F15437411CF5F940C49B3540DFE44A41C2D9DC407D3E8A4071CFD14014C91E4199882C407BAB884186100741F9D94F40DF3FA240CC26A140ABCB8E405EE4B04055835B401E13334027481D426A3B6C409A736D401A840041FA70FC4067723840F8EA8D414D236340A2364C40CE37084163FA554181D2AE408AF9584007CD3D408E50664078409540CEC30C41FA52DF404B17334062BB854013644F40860E57400AE14F40A14F08410E99F04065D37A40DBC4F240707481418274834009247F41FA0CEB4057212E40660B2F418F6487407402764003F1914042B15C404CAE5540077C6D40BAB5E840647E3540669246404BE33A408CDC134161D3DA40B85EED4034724C40A273054168CD5D40600DA440BA633A4108FD3340F12E33402E5B8A412D81B440B0909A40"> : tensor<8x16xf32>
    %bad0 = call @check0(%res, %want0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    return
  }
}
