import random, json
from tests.pole.test_playouts import policy
from bot.games.pole import ENGINE as E
from rendering import pole as P
st = E.new_game({"circuit": "italy"}, 6, 11)
rnd = random.Random(3)
for _ in range(160):
    seat = rnd.choice(E.to_act(st)); st, _ = E.apply(st, seat, policy(st, seat, rnd))
names=["Alice","Bob","千尋","Dmitri","Eve","Fay"]
open("/tmp/board.png","wb").write(P.render_board(E.view(st,None), names, "en"))
open("/tmp/hand.png","wb").write(P.render_hand(E.view(st,0), names, "ja"))
from PIL import Image
im=Image.open("/tmp/board.png"); im.resize((390, int(im.height*390/im.width))).save("/tmp/board390.png")
