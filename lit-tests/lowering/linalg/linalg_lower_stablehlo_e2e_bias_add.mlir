// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program bias_add.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program bias_add (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<8x16xf32>, %arg1: tensor<16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.add %arg0, %1 : tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
  func.func private @check0(%got: tensor<8x16xf32>, %want: tensor<8x16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8x16xf32>
    %ad = stablehlo.abs %d : tensor<8x16xf32>
    %aw = stablehlo.abs %want : tensor<8x16xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<8x16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<8x16xf32>
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
    %in0 = stablehlo.constant dense<"0xF3AED43FB7953D3F0CFA0040C9A16DBD72A9473FE9306C3F843728BF49D2DABFCC9F233CFA807CBE88DE7FBF9EA48E3FF8515CBFAB9A503F513588BFA965B4BF451C51BE3E7019C0FD19D33F2FD523BE4932AABE987CF03EF00037BF2D4FE23F6EB48BBAF8EE71BE99EC613F380B543F28B60540533480BF7DE61EC068AAE43D1A7552BEF601A1BE75C281BFD34F4CBE972BDB3E717EE23F073A023E0D3A24BDB83CAFBF591C2DC0EFCDAF3E0C571D3FD129673F700399BEE533033F07F90E3F67DE243F8FB705C0D2D05CBD64F6573D78A36ABEEC43A83FB449B03EA4A830BE10CF89BFDF89AF3FE51C89BFD28F813FD592353F1188283DFEE7AD3F1AF4A6BE7031E03F7CECBA3E855E65BFB80E483F37AA863D8C5D3240D3466FBB7C4874BFA5A3A1BFD6962140F250DDBFDE9747BD5520DEBEC20AB53DB5FB2B3F1166E03FC9C2263D1910B8BEBC7409BF23340CBF96FF18BF01C6E8BF88CED63E0DA1453E66FEE43E80242D401999A6BF6E812040F25D2DBF3AEBA5BEF973763F581B973F930EB63DA7DA013FA70310BF0C7AA03FA137813F6980C0BF392C413FE431803E4F13EDBEAF75A3BF5EEEED3FC842393C7E3A2B3F9C378E3F1F1F13BF72B846BFFE28C83FBD002E3FAAA6D2BFB4E8E4BE343784BFA16DD2BEC55E463FCF0CB13FABA0C5BF14D4103F38D2E3BFCD79353F883677BD59CFF03FA38486BF6888D73F"> : tensor<8x16xf32>
    %in1 = stablehlo.constant dense<"0x1649C7BEADB5523F56804C3DE89812BFD61CF2BDEA0CC23F221BE23F7CF4144086B1A23F0E18753FCA3354BEE951AA3FBF3BEDBEF1D07DBE7C0C6F3F763A21BC"> : tensor<16xf32>
    %res = call @compute(%in0, %in1) : (tensor<8x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>)
    %want0 = stablehlo.constant dense<"0xAEDCA23FB225C83F0D2C0440057321BFD765293FAF121C4060FF8D3F5E2D1E3FC6F8A33FD0F7353FBD759ABF447B1C40EC77A9BF6F26113F987805BE1EA8B5BF9CEB17BFA685C9BF007ED93F348E3BBF7EB9E6BE102CFE3FAA9A863F090E8340998EA23F509C383FA6DF2C3FC22B0A40601DD03F71EE9FBFBC46C6BF1983D03DD24118BFB234023FE5BC76BFDDAC45BF62A49E3EAE4552406362F23F9463124020B3C8BDABACDFBF14680B3E6FFDF83FE317E13EF4F50BBF3020B93F1D740C3FB873823E4814A2BFE08382BB821905BFF2D8B1BE6B283540C8160740F2E90940B013473EF30A15405EA3A3BFDEF01540D6D37B3EEDAE53BE1EB71240EEFDABBE2A5FAE3FF615983F809658BF40D7553E3EE556BD00B289407FA3E13FBAC4AF3F80F0063CDADC5E406BD7F7BF2A15A43F0AAE65BF904B23BE1884CD3F9C23DF3FBD70B2BE415BED3E6D59F9BE86668FBF314337BF5CE49ABE62E70B408D4E214020F1DB3F846A6A40921FC1BF62AA7540E9FD91BFD96912BF3AC0F23FE3D8953F71C599BE2A48AA3FA23B03BF305B2E3FA72B643F8040463C9F582140B8FA244064D94E3FA0A6A3BEE567D33F6FC4AB3F7A72523EFCFA5C3FBADAB73E5C3D49BFB856963F355BC03FA742CCBFA18682BF015993BF82718D3F42A52240E47A6D4094BC8BBE11F6C23FB158FEBF68870240481106BF3B15D13F50E6EFBDF345D63F"> : tensor<8x16xf32>
    %bad0 = call @check0(%res, %want0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    return
  }
}
