// The Cutting Game, as a contestant writes it: the SG table of every W x H up to
// 200 x 200 bottom-up (cuts leaving both pieces at least 2), then one line per case.
#include <cstdio>
#include <cstring>
int sg[201][201];
int main(){
  for(int w=2;w<=200;w++) for(int h=2;h<=200;h++){
    static bool seen[1024]; memset(seen,0,sizeof seen);
    for(int i=2;i<=w-2;i++) seen[sg[i][h]^sg[w-i][h]]=1;
    for(int j=2;j<=h-2;j++) seen[sg[w][j]^sg[w][h-j]]=1;
    int g=0; while(seen[g]) g++; sg[w][h]=g;
  }
  int t; scanf("%d",&t); while(t--){int w,h; scanf("%d %d",&w,&h); puts(sg[w][h]?"WIN":"LOSE");}
}
